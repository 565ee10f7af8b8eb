// A stand-in for the documented Open Food Facts product API on a free loopback port: GET
// /api/v2/product/{code}.json answers {status: 1, product} for the products it holds and a 404 with {status: 0}
// for the rest, as the real API does. A code can be made to fail in each way the service must survive.
import http from "node:http";
import { freePort } from "@fit/testing";

/** A barcode ending in its GS1 check digit: `digits` are every digit but the last. */
export const withCheckDigit = (digits: string) => {
  const sum = [...digits].reverse().reduce((total, digit, i) => total + Number(digit) * (i % 2 === 0 ? 3 : 1), 0);
  return `${digits}${(10 - (sum % 10)) % 10}`;
};

/** How a code is answered instead of from the catalogue. */
export type Failure = "error" | "hang" | "junk" | "huge" | "not-a-product" | "not-found-200";

/** Nutella, as the public API answers for 3017620422003 with the fields the service asks for. */
export const NUTELLA = {
  code: "3017620422003",
  product: {
    product_name: "Nutella",
    brands: "Ferrero,Nutella",
    serving_size: "15 g",
    serving_quantity: "15",
    nutriments: {
      "energy-kcal_100g": 539, energy_100g: 2252, proteins_100g: 6.3, fat_100g: 30.9, carbohydrates_100g: 57.5,
      fiber_100g: 0, sugars_100g: 56.3, sodium_100g: 0.0428, salt_100g: 0.107,
    },
  },
};

export const startOpenFoodFacts = async () => {
  const products = new Map<string, object>([[NUTELLA.code, NUTELLA.product]]);
  const failures = new Map<string, Failure>();
  /** Every code asked for, in order. */
  const asked: string[] = [];
  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(typeof body === "string" ? body : JSON.stringify(body));
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://stand-in");
    const code = /^\/api\/v2\/product\/(\d+)\.json$/.exec(url.pathname)?.[1];
    if (req.method !== "GET" || code === undefined) return json(res, 404, { status: 0, status_verbose: "no such route" });
    asked.push(code);
    switch (failures.get(code)) {
      case "error":
        return json(res, 500, "<html>Internal Server Error</html>");
      case "hang":
        return;
      case "junk":
        return json(res, 200, "{\"status\": 1, \"product\": {");
      case "huge":
        return json(res, 200, { status: 1, product: { product_name: "x".repeat(400_000) } });
      case "not-a-product":
        return json(res, 200, { status: 1, product: [1, 2, 3] });
      case "not-found-200":
        return json(res, 200, { code, status: 0, status_verbose: "product not found" });
    }
    const product = products.get(code);
    if (!product) return json(res, 404, { code, status: 0, status_verbose: "product not found" });
    json(res, 200, { code, status: 1, status_verbose: "product found", product });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    products,
    failures,
    asked,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};

export type OpenFoodFactsStandIn = Awaited<ReturnType<typeof startOpenFoodFacts>>;
