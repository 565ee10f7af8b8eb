import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadCreateKeyConfig, loadGatewayConfig } from "../../src/config.ts";

const secrets = { INTERNAL_ASSERTION_SECRET: "i".repeat(32), BETTER_AUTH_SECRET: "b".repeat(32) };

describe("gateway config", () => {
  it("defaults PUBLIC_URL to the address it listens on", () => {
    expect(loadGatewayConfig(secrets).PUBLIC_URL).toBe("http://127.0.0.1:3000");
    expect(loadGatewayConfig({ ...secrets, PORT: "8080" }).PUBLIC_URL).toBe("http://127.0.0.1:8080");
    expect(loadGatewayConfig({ ...secrets, HOST: "0.0.0.0" }).PUBLIC_URL).toBe("http://localhost:3000");
    expect(loadGatewayConfig({ ...secrets, PORT: "8080", PUBLIC_URL: "https://fit.example" }).PUBLIC_URL).toBe("https://fit.example");
  });

  it("refuses a missing or short secret, a non-postgres URL and a non-SMTP mail URL, naming each", () => {
    expect(() => loadGatewayConfig({ INTERNAL_ASSERTION_SECRET: secrets.INTERNAL_ASSERTION_SECRET })).toThrow(/BETTER_AUTH_SECRET/);
    expect(() => loadGatewayConfig({ ...secrets, BETTER_AUTH_SECRET: "short" })).toThrow(/BETTER_AUTH_SECRET/);
    expect(() => loadGatewayConfig({ ...secrets, DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL/);
    expect(() => loadGatewayConfig({ ...secrets, SMTP_URL: "http://mail" })).toThrow(/SMTP_URL/);
  });

  it("turns on an identity provider only when all its variables are set, and refuses half a configuration", () => {
    expect(loadGatewayConfig(secrets).IDENTITY_PROVIDERS).toEqual({ oidc: undefined, google: undefined, github: undefined });
    const oidc = { OIDC_ISSUER: "https://id.example/realms/fit", OIDC_CLIENT_ID: "fit", OIDC_CLIENT_SECRET: "s" };
    expect(loadGatewayConfig({ ...secrets, ...oidc, OIDC_SCOPES: "openid, email groups" }).IDENTITY_PROVIDERS.oidc).toEqual({
      id: "oidc", issuer: oidc.OIDC_ISSUER, clientId: "fit", clientSecret: "s", scopes: ["openid", "email", "groups"],
    });
    expect(loadGatewayConfig({ ...secrets, GITHUB_CLIENT_ID: "g", GITHUB_CLIENT_SECRET: "h" }).IDENTITY_PROVIDERS.github).toEqual({ clientId: "g", clientSecret: "h" });
    expect(() => loadGatewayConfig({ ...secrets, OIDC_ISSUER: oidc.OIDC_ISSUER, OIDC_CLIENT_ID: "fit" })).toThrow(/OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET must be set together/);
    expect(() => loadGatewayConfig({ ...secrets, GOOGLE_CLIENT_SECRET: "x" })).toThrow(/GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET/);
    expect(() => loadGatewayConfig({ ...secrets, ...oidc, OIDC_NAME: "github" })).toThrow(/OIDC_NAME/);
  });
});

describe("create-key config", () => {
  it("needs none of the gateway's secrets, but checks one that is given", () => {
    expect(loadCreateKeyConfig({})).toMatchObject({ PUBLIC_URL: "http://127.0.0.1:3000", MAIL_FROM: "Fitness <no-reply@localhost>" });
    expect(loadCreateKeyConfig({}).BETTER_AUTH_SECRET).toBeUndefined();
    expect(() => loadCreateKeyConfig({ BETTER_AUTH_SECRET: "short" })).toThrow(/BETTER_AUTH_SECRET/);
  });

  it("resolves a relative DATA_DIR from where the command was typed (INIT_CWD), so the launcher and the CLI agree", () => {
    expect(loadCreateKeyConfig({ INIT_CWD: "/repo" }).DATA_DIR).toBe("/repo/data");
    expect(loadCreateKeyConfig({ INIT_CWD: "/repo", DATA_DIR: "/var/lib/fit" }).DATA_DIR).toBe("/var/lib/fit");
    expect(loadCreateKeyConfig({}).DATA_DIR).toBe(path.resolve("data"));
  });
});
