// The compose file, the image and the build context, checked offline (issue 36): every container without
// privileges it does not need, NATS behind TLS and a user per service, a database role per service, the
// monitoring port on loopback only, a health check that does not start Node, and nothing private in the context.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { busAccess } from "@fit/contracts";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const read = (file: string) => readFileSync(`${ROOT}${file}`, "utf8");

interface ComposeService {
  image?: string;
  user?: string;
  command?: string[];
  read_only?: boolean;
  cap_drop?: string[];
  cap_add?: string[];
  security_opt?: string[];
  tmpfs?: string[];
  ports?: string[];
  healthcheck?: { test: string[] };
  environment?: Record<string, string>;
  volumes?: string[];
}
const compose = parse(read("docker-compose.yml"), { merge: true }) as { services: Record<string, ComposeService> };
const services = Object.keys(busAccess);
/** The schema each service keeps its tables in (its ServiceDatabase), which its role is named after. */
const schemaOf = (service: string) => /schema: "([a-z_]+)"/.exec(read(`services/${service}/src/app.ts`))![1]!;

describe("docker-compose.yml", () => {
  it("drops every capability, forbids new privileges and keeps the root filesystem read-only in every container", () => {
    for (const [name, service] of Object.entries(compose.services)) {
      expect(service.cap_drop, name).toEqual(["ALL"]);
      expect(service.security_opt, name).toContain("no-new-privileges:true");
      if (name !== "postgres") expect(service.read_only, name).toBe(true);
    }
  });

  it("runs no long-lived container as root", () => {
    for (const name of ["collector", ...services]) expect(compose.services[name]!.user ?? "node", name).not.toMatch(/^(0|root)(:|$)/);
  });

  it("publishes only the gateway, and keeps NATS's monitoring on its loopback", () => {
    for (const [name, service] of Object.entries(compose.services)) if (name !== "gateway") expect(service.ports, name).toBeUndefined();
    expect(compose.services.nats!.command?.join(" ") ?? "").not.toMatch(/-m\b|--http_port/);
    expect(read("infra/nats/nats-server.conf")).toMatch(/^http: "127\.0\.0\.1:8222"$/m);
  });

  it("gives each service its own NATS user over TLS and its own database role", () => {
    for (const name of services) {
      const env = compose.services[name]!.environment!;
      expect(env["NATS_URL"], name).toMatch(/^tls:\/\//);
      expect(env["NATS_CA"], name).toBeDefined();
      expect(env["NATS_USER"], name).toBe(name);
      expect(env["NATS_PASSWORD"], name).toMatch(/^\$\{NATS_PASSWORD_[A-Z_]+:\?/);
      const role = schemaOf(name);
      expect(env["DATABASE_URL"], name).toMatch(new RegExp(`^postgres://${role}:\\$\\{POSTGRES_PASSWORD_[A-Z_]+:\\?[^}]*\\}@postgres:5432/fitness$`));
    }
    const roles = read("infra/postgres/create-roles.sh");
    for (const name of services) expect(roles, name).toContain(schemaOf(name));
  });

  it("checks health without starting Node", () => {
    const dockerfile = read("infra/Dockerfile");
    const check = /HEALTHCHECK[^\n]*\\\n\s*CMD (.*)/.exec(dockerfile)?.[1] ?? "";
    expect(check).not.toBe("");
    expect(check).not.toMatch(/"node"/);
    for (const [name, service] of Object.entries(compose.services)) expect(service.healthcheck?.test.join(" ") ?? "", name).not.toMatch(/\bnode\b/);
  });
});

describe(".dockerignore", () => {
  const patterns = read(".dockerignore").split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#"));
  // As Docker reads them: a pattern matches from the context's root, and excluding a folder excludes what it holds.
  const matches = (file: string, pattern: string) => path.matchesGlob(file, pattern) || path.matchesGlob(file, `${pattern}/**`);
  const ignored = (file: string) => patterns.reduce((out, p) => (p.startsWith("!") ? out && !matches(file, p.slice(1)) : out || matches(file, p)), false);

  it.each([".env", "apps/web/.env", "services/gateway/.env.local", "services/coach/data/x.db", "packages/db/node_modules/x", "apps/cli/dist/fit.js", "infra/nats/tls/server.key", "services/gateway/secrets/k", "a/b/key.pem", "services/gateway/coverage/x", ".git/config"])(
    "keeps %s out of the build context",
    (file) => expect(ignored(file)).toBe(true),
  );

  it.each(["services/gateway/src/app.ts", "pnpm-lock.yaml", "packages/contracts/src/index.ts"])("keeps %s in it", (file) => expect(ignored(file)).toBe(false));
});
