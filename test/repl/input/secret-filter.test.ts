import { describe, expect, it } from "vitest";
import { mayContainSecret } from "../../../repl/input/secret-filter.js";
import { seededRandom } from "../../../src/core/sample-data/seeded-random.js";

// Seeded, so the test is the same on every run (random keys, but reproducible ones).
const random = seededRandom(7);
const randomBytes = (n: number): Buffer => Buffer.from(Array.from({ length: n }, () => Math.floor(random() * 256)));

describe("mayContainSecret", () => {
  it("drops lines naming a credential with a value", () => {
    for (const line of [
      "process.env.MDPS_CLIENT_SECRET = 'abc'",
      "client_secret=xyz",
      "const key = 'k'",
      "token: abc",
      "/preprocess b1 StandardScaler --key abc",
      "fetch(url, { headers: { authorization: 'Bearer abc.def' } })",
      "password=hunter2",
    ]) {
      expect(mayContainSecret(line), line).toBe(true);
    }
  });

  it("drops random base64, base64url and hex values", () => {
    for (let i = 0; i < 300; i++) {
      expect(mayContainSecret(`x("${randomBytes(32).toString("base64")}")`)).toBe(true);
      expect(mayContainSecret(`y ${randomBytes(32).toString("base64url")}`)).toBe(true);
      expect(mayContainSecret(`z ${randomBytes(24).toString("base64url")}`)).toBe(true);
    }
    expect(mayContainSecret(randomBytes(32).toString("hex"))).toBe(true);
  });

  it("keeps ordinary commands, paths, ids and code", () => {
    for (const line of [
      "/load data/customers_2024.csv as customers",
      "/load /home/teacher/Documents/ClassMaterials/Week03_Lessons/SalesData.csv",
      "/preprocess customers StandardScaler with_mean=false --columns age,income",
      "/fetch 3f2b8c1e-9d4a-4c6b-8e2f-1a2b3c4d5e6f as scaled",
      "/hist scaled income",
      "await session.health()",
      "customers.head(3).describe()",
      "const monthlyAverageSpendPerCustomer = customers['spend'].mean()",
      "QuarterlyRevenueReport2024Final",
    ]) {
      expect(mayContainSecret(line), line).toBe(false);
    }
  });
});
