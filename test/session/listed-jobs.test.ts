/** session.jobs() gives handles that know their transform, and a missing file is named plainly. */
import { DataFrame } from "danfojs-node";
import { expect, it } from "vitest";
import { useLocalSession } from "./session-fixture.js";

const session = useLocalSession();

it("a listed job's handle has the transform its request named", async () => {
  const sent = await session().preprocess(new DataFrame({ x: [1, 2, 4] }), { type: "RobustScaler" });
  await sent.wait({ progress: false });
  const listed = (await session().jobs()).find((job) => job.id === sent.id);
  expect(listed?.type).toBe("RobustScaler");
});

it("a path that does not exist says no such file", async () => {
  await expect(session().preprocess("no/such/data.csv", { type: "StandardScaler" })).rejects.toThrow(
    "cannot read no/such/data.csv: no such file",
  );
});
