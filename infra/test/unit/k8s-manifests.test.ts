// The Kubernetes manifests, checked offline: every document of the base and of each overlay validates against
// the Kubernetes schemas (kubernetes-models), and the pieces fit together (selectors, ports, probes, secrets,
// one Deployment per service folder). Overlays are rendered with `kubectl kustomize` where kubectl exists.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import * as apps from "kubernetes-models/apps/v1";
import * as autoscaling from "kubernetes-models/autoscaling/v2";
import * as networking from "kubernetes-models/networking.k8s.io/v1";
import * as policy from "kubernetes-models/policy/v1";
import * as core from "kubernetes-models/v1";
import { parseAllDocuments } from "yaml";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const K8S = `${ROOT}infra/k8s`;

interface Doc {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  [field: string]: unknown;
}
type Container = {
  name: string;
  ports?: { name: string; containerPort: number }[];
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean } } }[];
  readinessProbe?: { httpGet?: { path: string; port: string } };
  livenessProbe?: { httpGet?: { path: string; port: string } };
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
};
/** The fields of a Service, budget or autoscaler spec these checks read. */
interface Spec {
  selector?: Record<string, string> & { matchLabels?: Record<string, string> };
  ports?: { targetPort: string }[];
  scaleTargetRef?: { name: string };
}
type Deployment = Doc & {
  spec: {
    selector: { matchLabels: Record<string, string> };
    template: { metadata: { labels: Record<string, string> }; spec: { containers: Container[]; securityContext?: { runAsNonRoot?: boolean }; automountServiceAccountToken?: boolean } };
  };
};
interface PolicyPeer { podSelector?: { matchLabels?: Record<string, string> }; namespaceSelector?: object; ipBlock?: object }
type NetworkPolicy = Doc & {
  spec: {
    podSelector: { matchLabels?: Record<string, string> };
    policyTypes: string[];
    ingress?: { from?: PolicyPeer[]; ports?: { port: number | string }[] }[];
    egress?: { to?: PolicyPeer[]; ports?: { port: number | string }[] }[];
  };
};

const parse = (text: string): Doc[] => parseAllDocuments(text).map((d) => d.toJS() as Doc).filter(Boolean);

const base = (): Doc[] => {
  const kustomization = parse(readFileSync(`${K8S}/base/kustomization.yaml`, "utf8"))[0] as unknown as { resources: string[] };
  return kustomization.resources.flatMap((file) => parse(readFileSync(`${K8S}/base/${file}`, "utf8")));
};

const kubectl = spawnSync("kubectl", ["version", "--client"], { stdio: "ignore" }).status === 0;
const render = (overlay: string): Doc[] => {
  const out = spawnSync("kubectl", ["kustomize", `${K8S}/overlays/${overlay}`], { encoding: "utf8" });
  if (out.status !== 0) throw new Error(`kubectl kustomize ${overlay}: ${out.stderr}`);
  return parse(out.stdout);
};

/** The schemas of the API groups the manifests use; a document of any other group fails as unknown. */
const groups: Record<string, object> = { v1: core, "apps/v1": apps, "autoscaling/v2": autoscaling, "policy/v1": policy, "networking.k8s.io/v1": networking };

/** The kubernetes-models class for a document's apiVersion and kind. */
const modelOf = ({ apiVersion, kind }: Doc) => {
  const Model = (groups[apiVersion] as Record<string, new (data: object) => { validate(): void }> | undefined)?.[kind];
  if (!Model) throw new Error(`no schema for ${apiVersion} ${kind}`);
  return Model;
};

const validateAll = async (docs: Doc[]) => {
  const failures: string[] = [];
  for (const doc of docs) {
    try {
      new (modelOf(doc))(doc).validate();
    } catch (error) {
      failures.push(`${doc.kind}/${doc.metadata.name}: ${(error as Error).message}`);
    }
  }
  return failures;
};

const deployments = (docs: Doc[]) => docs.filter((d): d is Deployment => d.kind === "Deployment");
const serviceFolders = readdirSync(`${ROOT}services`, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();

describe("Kubernetes manifests", () => {
  it("the base validates against the Kubernetes schemas", async () => {
    const docs = base();
    expect(docs.length).toBeGreaterThan(10);
    expect(await validateAll(docs)).toEqual([]);
  });

  it("a schema violation is caught (the check can fail)", async () => {
    const [deployment] = deployments(base());
    const broken = { ...deployment!, spec: { ...deployment!.spec, replicas: "two" } };
    expect(await validateAll([broken])).toHaveLength(1);
  });

  it("one Deployment per service folder, each probed, bounded in memory and not root", () => {
    const docs = deployments(base());
    expect(docs.map((d) => d.metadata.name).sort()).toEqual(serviceFolders);
    for (const d of docs) {
      expect(d.spec.selector.matchLabels).toEqual(d.spec.template.metadata.labels);
      expect(d.spec.template.spec.securityContext?.runAsNonRoot, d.metadata.name).toBe(true);
      const [container] = d.spec.template.spec.containers;
      const port = container!.ports?.[0];
      expect(container!.readinessProbe?.httpGet).toEqual({ path: "/readyz", port: port?.name });
      expect(container!.livenessProbe?.httpGet).toEqual({ path: "/healthz", port: port?.name });
      expect(container!.resources?.requests?.["memory"], d.metadata.name).toBeDefined();
      expect(container!.resources?.limits?.["memory"], d.metadata.name).toBeDefined();
      expect(container!.env?.find((e) => e.name === "PORT")?.value).toBe(String(port?.containerPort));
      expect(container!.env?.find((e) => e.name === "SERVICE")?.value).toBe(d.metadata.name);
    }
  });

  it("every Service, budget and autoscaler points at a Deployment that exists, on a port it declares", () => {
    const docs = base();
    const byName = new Map(deployments(docs).map((d) => [d.metadata.name, d]));
    for (const doc of docs) {
      const spec = doc["spec"] as Spec;
      if (doc.kind === "Service") {
        const target = [...byName.values()].find((d) => Object.entries(spec.selector ?? {}).every(([k, v]) => d.spec.template.metadata.labels[k] === v));
        expect(target, `Service ${doc.metadata.name}`).toBeDefined();
        const names = target!.spec.template.spec.containers.flatMap((c) => c.ports ?? []).map((p) => p.name);
        for (const p of spec.ports ?? []) expect(names).toContain(p.targetPort);
      }
      if (doc.kind === "PodDisruptionBudget") expect(byName.get(spec.selector?.matchLabels?.["app.kubernetes.io/name"] ?? "")).toBeDefined();
      if (doc.kind === "HorizontalPodAutoscaler") expect(byName.get(spec.scaleTargetRef?.name ?? "")).toBeDefined();
    }
    expect(docs.filter((d) => d.kind === "HorizontalPodAutoscaler").map((d) => (d["spec"] as Spec).scaleTargetRef?.name)).toEqual(["coach"]);
  });

  it("mounts no service-account token, and gives each service its own NATS user and database role", () => {
    for (const d of deployments(base())) {
      const name = d.metadata.name;
      expect(d.spec.template.spec.automountServiceAccountToken, name).toBe(false);
      const env = d.spec.template.spec.containers[0]!.env ?? [];
      const variable = name.replace("-", "_").toUpperCase();
      expect(env.find((e) => e.name === "NATS_USER")?.value, name).toBe(name);
      expect(env.find((e) => e.name === "NATS_PASSWORD")?.valueFrom?.secretKeyRef?.key, name).toBe(`NATS_PASSWORD_${variable}`);
      expect(env.find((e) => e.name === "DATABASE_URL")?.valueFrom?.secretKeyRef?.key, name).toBe(`DATABASE_URL_${variable}`);
    }
    const config = base().find((d) => d.kind === "ConfigMap") as Doc & { data: Record<string, string> };
    expect(config.data["NATS_URL"]).toMatch(/^tls:\/\//);
    expect(config.data["NATS_CA"]).toBeDefined();
  });

  it("network policies: everything denied but the ingress to the gateway, the gateway to the services, and NATS, PostgreSQL and DNS", () => {
    const docs = base();
    const policies = docs.filter((d): d is NetworkPolicy => d.kind === "NetworkPolicy");
    const denyAll = policies.find((p) => Object.keys(p.spec.podSelector.matchLabels ?? {}).length === 0 && !p.spec.ingress && !p.spec.egress);
    expect(denyAll?.spec.policyTypes.sort()).toEqual(["Egress", "Ingress"]);
    const ingressTo = (name: string) =>
      policies.filter((p) => p.spec.podSelector.matchLabels?.["app.kubernetes.io/name"] === name).flatMap((p) => p.spec.ingress ?? []);
    // Only the gateway is reached from outside the namespace, and on its http port alone (besides metrics).
    const fromElsewhere = (name: string) => ingressTo(name).filter((rule) => rule.from?.some((peer) => peer.namespaceSelector && !peer.podSelector));
    expect(fromElsewhere("gateway").flatMap((r) => r.ports ?? []).map((p) => p.port)).toContain("http");
    for (const name of ["body-metrics", "nutrition", "workouts", "coach", "insights", "imports"]) {
      for (const rule of fromElsewhere(name)) expect(rule.ports?.map((p) => p.port), name).toEqual(["metrics"]);
      const fromPods = ingressTo(name).flatMap((r) => r.from ?? []).filter((peer) => peer.podSelector);
      for (const peer of fromPods) expect(peer.podSelector?.matchLabels, name).toEqual({ "app.kubernetes.io/name": "gateway" });
    }
    expect(ingressTo("coach").flatMap((r) => r.from ?? []).filter((peer) => peer.podSelector)).toEqual([]);
    const egressPorts = policies.flatMap((p) => p.spec.egress ?? []).flatMap((r) => r.ports ?? []).map((p) => p.port);
    for (const port of [4222, 5432, 53]) expect(egressPorts).toContain(port);
  });

  describe.skipIf(!kubectl)("overlays (rendered with kubectl kustomize)", () => {
    it.each(["local", "production"])("%s validates against the Kubernetes schemas", async (overlay) => {
      const docs = render(overlay);
      expect(deployments(docs).map((d) => d.metadata.name).sort()).toEqual(serviceFolders);
      expect(await validateAll(docs)).toEqual([]);
    });

    it("production scales the coach on a series the coach exports, as Prometheus names it", () => {
      const hpa = render("production").find((d) => d.kind === "HorizontalPodAutoscaler") as Doc & { spec: { metrics: { pods?: { metric: { name: string } } }[] } };
      const names = hpa.spec.metrics.flatMap((m) => (m.pods ? [m.pods.metric.name] : []));
      const source = readFileSync(`${ROOT}services/coach/src/handlers/capacity.ts`, "utf8");
      const gauge = /createObservableGauge\("([^"]+)"/.exec(source)?.[1];
      expect(names).toEqual([gauge?.replaceAll(".", "_")]);
    });

    it("production trusts the ingress hop's forwarded address", () => {
      const config = render("production").find((d) => d.kind === "ConfigMap" && d.metadata.name === "fit-config") as Doc & { data: Record<string, string> };
      expect(config.data["TRUST_PROXY"]).toMatch(/^[\d./:,a-f ]+$/);
    });

    it("the local overlay's Secret holds every key a container requires", () => {
      const docs = render("local");
      const secret = docs.find((d) => d.kind === "Secret" && d.metadata.name === "fit-secrets") as Doc & { data: Record<string, string> };
      for (const d of deployments(docs)) {
        for (const e of d.spec.template.spec.containers.flatMap((c) => c.env ?? [])) {
          const ref = e.valueFrom?.secretKeyRef;
          if (ref && !ref.optional) expect(Object.keys(secret.data), `${d.metadata.name} ${e.name}`).toContain(ref.key);
        }
      }
    });
  });
});
