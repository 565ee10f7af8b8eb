import { jwtVerify, SignJWT } from "jose";
import { z } from "zod";
import { AppError } from "@fit/contracts";

/** Who is calling, as the gateway established it. Services trust this and nothing else. */
export const Caller = z.object({
  accountId: z.uuid(),
  email: z.string(),
  scopes: z.array(z.string()).nullable(),
});
export type Caller = z.infer<typeof Caller>;

export const ASSERTION_HEADER = "x-fit-assertion";
const ISSUER = "fit-gateway";
const AUDIENCE = "fit-services";
const TTL_SECONDS = 60;

const keyOf = (secret: string) => new TextEncoder().encode(secret);

export const signAssertion = (secret: string, caller: Caller): Promise<string> =>
  new SignJWT({ email: caller.email, scopes: caller.scopes })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(caller.accountId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${TTL_SECONDS}s`)
    .sign(keyOf(secret));

export const verifyAssertion = async (secret: string, token: string | undefined): Promise<Caller> => {
  if (!token) throw new AppError("unauthenticated", "missing internal assertion");
  try {
    const { payload } = await jwtVerify(token, keyOf(secret), {
      issuer: ISSUER,
      audience: AUDIENCE,
      algorithms: ["HS256"],
    });
    return Caller.parse({ accountId: payload.sub, email: payload["email"], scopes: payload["scopes"] ?? null });
  } catch {
    throw new AppError("unauthenticated", "invalid internal assertion");
  }
};
