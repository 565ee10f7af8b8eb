// Calls a service directly, without a gateway in front, as the gateway itself would: a test of one service
// process then needs nothing else running.
import { ASSERTION_HEADER, signAssertion } from "@fit/service-kit";

/** JSON in, status + JSON out, with a fresh internal assertion for `caller` on every request. `baseUrl` is read per call: the service may have restarted on another port. */
export const serviceClient = (baseUrl: () => string, secret: string, caller: { accountId: string; email: string }) => {
  const call = async (method: string, path: string, body?: unknown) => {
    const assertion = await signAssertion(secret, { ...caller, scopes: null });
    const response = await fetch(new URL(path, baseUrl()), {
      method,
      headers: { [ASSERTION_HEADER]: assertion, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
  return {
    get: (path: string) => call("GET", path),
    post: (path: string, body: unknown) => call("POST", path, body),
    patch: (path: string, body: unknown) => call("PATCH", path, body),
    delete: (path: string) => call("DELETE", path),
  };
};
