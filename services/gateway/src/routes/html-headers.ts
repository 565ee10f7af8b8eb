import type { FastifyReply } from "fastify";

/** A page with nothing to load or run but its own inline style: the OAuth pages and better-auth's error page. */
export const PLAIN_PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'";

/**
 * The headers of every HTML answer the gateway serves (the web app, the OAuth pages, better-auth's pages): its
 * policy, which forbids framing with frame-ancestors 'none' (clickjacking a consent or a settings page), the same
 * for browsers that only know X-Frame-Options, and no type sniffing.
 */
export const htmlHeaders = (reply: FastifyReply, csp: string) =>
  reply.header("content-security-policy", csp).header("x-frame-options", "DENY").header("x-content-type-options", "nosniff");
