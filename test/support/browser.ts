// A browser by hand, for sign-in flows that cross origins: a cookie jar per origin, redirects followed one at a
// time so a test sees (and may change) every hop.
export const browser = () => {
  const jars = new Map<string, Map<string, string>>();
  const jar = (url: URL) => jars.get(url.origin) ?? jars.set(url.origin, new Map()).get(url.origin)!;
  const keep = (url: URL, response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const at = pair.indexOf("=");
      const [name, value] = [pair.slice(0, at).trim(), pair.slice(at + 1).trim()];
      if (value === "" || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) jar(url).delete(name);
      else jar(url).set(name, value);
    }
  };
  const cookieHeader = (url: URL) => [...jar(url)].map(([name, value]) => `${name}=${value}`).join("; ");

  /** One request with the origin's cookies; redirects are answered, not followed. */
  const request = async (target: string | URL, init: RequestInit = {}) => {
    const url = new URL(target);
    const headers = new Headers(init.headers);
    const cookie = cookieHeader(url);
    if (cookie) headers.set("cookie", cookie);
    const response = await fetch(url, { ...init, headers, redirect: "manual" });
    keep(url, response);
    return response;
  };

  return {
    request,
    /** The cookie header this browser would send to `origin`. */
    cookies: (origin: string) => cookieHeader(new URL(origin)),
    /**
     * Follows redirects from `start` until one leads to `stopAt` (an origin) or a response is not a redirect;
     * `visit` may rewrite each location first (say, to answer a login form).
     */
    follow: async (start: string | URL, stopAt: string, visit: (location: URL) => URL = (location) => location) => {
      let url = new URL(start);
      for (let hop = 0; hop < 10; hop++) {
        const response = await request(url);
        const location = response.headers.get("location");
        if (response.status < 300 || response.status >= 400 || !location) return { url, response };
        await response.arrayBuffer();
        url = visit(new URL(location, url));
        if (url.origin === stopAt) return { url, response };
      }
      throw new Error(`more than 10 redirects from ${String(start)}`);
    },
  };
};

export type Browser = ReturnType<typeof browser>;
