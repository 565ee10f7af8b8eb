// Signs in by magic link as a person would on a machine without SMTP: the gateway prints the link on the console
// (services/gateway/src/identity/mailer.ts), the test reads it there and follows it like a browser.
import { waitFor } from "./wait.ts";

const LINK = /Sign-in link for (\S+): (\S+)/;

/** The session cookie (`name=value`) of a fresh sign-in of `email` at the gateway on `baseUrl`. */
export const signIn = async (baseUrl: string, email: string): Promise<string> => {
  const links: string[] = [];
  const stdout = process.stdout;
  const write = stdout.write;
  stdout.write = (chunk: string | Uint8Array, ...rest: never[]) => {
    const found = LINK.exec(String(chunk));
    if (found?.[1] === email && found[2]) links.push(found[2]);
    return write.call(stdout, chunk, ...rest);
  };
  let link: string;
  try {
    const origin = new URL(baseUrl).origin;
    const asked = await fetch(new URL("/api/auth/sign-in/magic-link", baseUrl), {
      method: "POST",
      headers: { "content-type": "application/json", origin },
      body: JSON.stringify({ email, callbackURL: "/" }),
    });
    if (asked.status !== 200) throw new Error(`magic link refused: ${asked.status} ${await asked.text()}`);
    link = await waitFor(`the magic link of ${email} on the console`, async () => links[0]);
  } finally {
    stdout.write = write;
  }
  const followed = await fetch(link, { redirect: "manual" });
  const cookie = followed.headers.getSetCookie().find((c) => c.includes("session_token="))?.split(";")[0];
  if (!cookie) throw new Error(`following the magic link set no session cookie (${followed.status})`);
  return cookie;
};
