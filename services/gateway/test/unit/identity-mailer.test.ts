import { createHash } from "node:crypto";
import net from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createMagicLinkMailer } from "../../src/identity/mailer.ts";

const recordingLogger = () => {
  const lines: { level: string; obj: object; msg?: string }[] = [];
  const at = (level: string) => (obj: object, msg?: string) => void lines.push({ level, obj, msg });
  return { lines, logger: { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") } };
};

// Just enough SMTP to accept one message and hand its text to the test.
function fakeSmtp(): Promise<{ port: number; received: Promise<string>; close(): void }> {
  let deliver: (text: string) => void = () => {};
  const received = new Promise<string>((resolve) => (deliver = resolve));
  const server = net.createServer((socket) => {
    let data = "";
    let inData = false;
    socket.write("220 fake ESMTP\r\n");
    socket.on("data", (chunk) => {
      for (const line of chunk.toString("utf8").split("\r\n").filter((l, i, all) => l !== "" || i < all.length - 1)) {
        if (inData) {
          if (line === ".") {
            inData = false;
            deliver(data);
            socket.write("250 queued\r\n");
          } else data += `${line}\n`;
        } else if (/^(EHLO|HELO)/i.test(line)) socket.write("250 fake\r\n");
        else if (/^DATA/i.test(line)) {
          inData = true;
          socket.write("354 go ahead\r\n");
        } else if (/^QUIT/i.test(line)) socket.end("221 bye\r\n");
        else socket.write("250 ok\r\n");
      }
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve({ port: (server.address() as net.AddressInfo).port, received, close: () => server.close() })),
  );
}

afterEach(() => vi.restoreAllMocks());

describe("magic-link mailer", () => {
  it("without SMTP, prints the link plainly, and logs that it did without the token", async () => {
    const { lines, logger } = recordingLogger();
    const written: string[] = [];
    const mailer = createMagicLinkMailer({ from: "x@localhost", logger, console: { write: (t: string) => written.push(t) } });
    await mailer.send({ email: "a@example.com", url: "http://localhost:3000/api/auth/magic-link/verify?token=abc" });
    expect(written.join("")).toBe("Sign-in link for a@example.com: http://localhost:3000/api/auth/magic-link/verify?token=abc\n");
    expect(lines.map((line) => line.level)).toEqual(["info"]);
    expect(JSON.stringify(lines[0]?.obj)).toContain("token=[redacted]");
    expect(JSON.stringify(lines)).not.toContain("abc");
    // The address itself never reaches the log (stdout above is the link, not the log); its digest does.
    expect(JSON.stringify(lines)).not.toContain("a@example.com");
    expect(lines[0]?.obj).toMatchObject({ recipient: createHash("sha256").update("a@example.com").digest("hex").slice(0, 16) });
  });

  it("with SMTP, mails the link and keeps it out of the log", async () => {
    const smtp = await fakeSmtp();
    try {
      const { lines, logger } = recordingLogger();
      const mailer = createMagicLinkMailer({ smtpUrl: `smtp://127.0.0.1:${smtp.port}`, from: "Fitness <no-reply@fit.example>", logger });
      await mailer.send({ email: "b@example.com", url: "https://fit.example/api/auth/magic-link/verify?token=xyz" });
      const message = await smtp.received;
      expect(message).toMatch(/^To: b@example\.com$/m);
      expect(message).toMatch(/^From: Fitness <no-reply@fit\.example>$/m);
      // The body is quoted-printable: undo its soft line breaks and escapes.
      const body = message.replace(/=\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
      expect(body).toContain("https://fit.example/api/auth/magic-link/verify?token=xyz");
      expect(JSON.stringify(lines)).not.toContain("token=xyz");
      expect(lines.map((line) => line.level)).toEqual(["info"]);
      expect(JSON.stringify(lines)).not.toContain("b@example.com");
    } finally {
      smtp.close();
    }
  });
});
