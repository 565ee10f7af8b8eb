import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from "fastify";
import { authRoutes } from "@fit/contracts";
import type { HttpApp } from "@fit/service-kit";

interface AuthHandler {
  handler(request: Request): Promise<Response>;
}

const toWebRequest = (request: FastifyRequest, publicUrl: string): Request => {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  const hasBody = request.method !== "GET" && request.method !== "HEAD" && request.body !== undefined;
  return new Request(new URL(request.url, publicUrl), {
    method: request.method,
    headers,
    ...(hasBody ? { body: JSON.stringify(request.body) } : {}),
  });
};

/** better-auth answers its errors as {code, message}; the API answers every error in one envelope. */
const toEnvelope = async (response: Response) => {
  const text = await response.text();
  if (response.status < 400) return text;
  try {
    const body = JSON.parse(text) as { message?: string; code?: string };
    return JSON.stringify({ error: body.message ?? body.code ?? response.statusText });
  } catch {
    return JSON.stringify({ error: response.statusText || "sign-in failed" });
  }
};

const send = async (reply: FastifyReply, response: Response) => {
  reply.status(response.status);
  for (const [name, value] of response.headers) {
    if (name !== "set-cookie" && name !== "content-length") void reply.header(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) void reply.header("set-cookie", cookies);
  return reply.send(await toEnvelope(response));
};

interface AuthRoutesOptions {
  identity: AuthHandler;
  publicUrl: string;
  /** Rate limits of the route that sends mail. */
  limits: preHandlerAsyncHookHandler[];
}

/** Mounts only the sign-in routes the API documents; the rest of better-auth's surface stays closed. */
export const authRoutesPlugin = (app: HttpApp, { identity, publicUrl, limits }: AuthRoutesOptions) => {
  for (const { method, path } of authRoutes) {
    app.route({
      method,
      url: path,
      ...(path === "/api/auth/sign-in/magic-link" ? { preHandler: limits } : {}),
      handler: async (request, reply) => send(reply, await identity.handler(toWebRequest(request, publicUrl))),
    });
  }
};
