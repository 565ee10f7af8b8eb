const LINK = /Sign-in link for (\S+): (\S+)/g;

/**
 * Signs in as a browser does, through the gateway over HTTP: asks for a magic link, reads it where the gateway
 * prints it without SMTP (this process's stdout, since the system runs in it), follows it, and returns the
 * session cookie as a `Cookie` header value.
 */
export const signIn = async (baseUrl: string, email: string): Promise<string> => {
  const printed: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
    const text = typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
    for (const [, to, url] of text.matchAll(LINK)) if (to === email && url) printed.push(url);
    return write(chunk, ...rest);
  });
  try {
    const origin = new URL(baseUrl).origin;
    const asked = await fetch(new URL("/api/auth/sign-in/magic-link", baseUrl), {
      method: "POST",
      headers: { "content-type": "application/json", origin },
      body: JSON.stringify({ email, callbackURL: "/" }),
    });
    if (asked.status !== 200) throw new Error(`asking for a magic link answered ${asked.status}: ${await asked.text()}`);
  } finally {
    process.stdout.write = write;
  }
  const link = printed.at(-1);
  if (!link) throw new Error(`no sign-in link was printed for ${email}`);
  const followed = await fetch(link, { redirect: "manual" });
  const cookie = followed.headers.getSetCookie().map((c) => c.split(";")[0] ?? "").find((c) => c.includes("session_token="));
  if (!cookie) throw new Error(`following the link answered ${followed.status} without a session cookie`);
  return cookie;
};
