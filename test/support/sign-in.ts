// A signed-in browser session in an integration test: the magic link the gateway prints (no SMTP_URL) is
// caught on this process's stdout and followed, as a person would click it.
import { vi } from "vitest";

const LINK = /Sign-in link for (\S+): (\S+)/;

/** The sign-in link printed for `email` while `run` runs (the output is held back meanwhile). */
export const printedLink = async (email: string, run: () => Promise<void>): Promise<string> => {
  const printed: string[] = [];
  const stdout = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    printed.push(String(chunk));
    return true;
  });
  try {
    await run();
  } finally {
    stdout.mockRestore();
  }
  const link = printed.map((line) => LINK.exec(line)).find((match) => match?.[1] === email)?.[2];
  if (!link) throw new Error(`no sign-in link was printed for ${email}`);
  return link;
};

/** Signs `email` in on the gateway at `baseUrl`; the `cookie` header value that carries the session. */
export const signIn = async (baseUrl: string, email: string, userAgent = "test-browser"): Promise<string> => {
  const link = await printedLink(email, async () => {
    const asked = await fetch(`${baseUrl}/api/auth/sign-in/magic-link`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: new URL(baseUrl).origin },
      body: JSON.stringify({ email }),
    });
    if (asked.status !== 200) throw new Error(`magic-link request answered ${asked.status}: ${await asked.text()}`);
  });
  const verified = await fetch(link, { redirect: "manual", headers: { "user-agent": userAgent } });
  const cookie = verified.headers.getSetCookie().map((c) => c.split(";")[0]!).find((c) => c.includes("session_token="));
  if (!cookie) throw new Error(`following the link answered ${verified.status} without a session cookie`);
  return cookie;
};
