import { SignJWT } from "jose";

/** The secret of the example JWT deployment (examples/auth/langgraph.json, test/fixtures/auth.langgraph.json). */
export const EXAMPLE_JWT_SECRET = "example-secret-change-me-0123456789abcdef";

/** An HS256 token for `user`, as a login service would sign it for examples/auth/auth.ts. */
export function signUserToken(user: string, secret = EXAMPLE_JWT_SECRET, scopes: string[] = []): Promise<string> {
  return new SignJWT({ scopes, name: user })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(user)
    .setIssuedAt()
    .setExpirationTime("10m")
    .sign(new TextEncoder().encode(secret));
}
