import { expect } from "vitest";
import { conformanceSpec } from "../spec.js";

export const settings = conformanceSpec("settings", ({ test }) => {
  test("a setting reads back as written, is replaced, and is removed with null", async (port) => {
    expect(await port.readSetting("embedder")).toBeNull();
    await port.writeSetting("embedder", '{"id":"a/b","dimensions":null}');
    expect(await port.readSetting("embedder")).toBe('{"id":"a/b","dimensions":null}');
    await port.writeSetting("embedder", "é 🚀");
    expect(await port.readSetting("embedder")).toBe("é 🚀");
    await port.writeSetting("embedder", null);
    expect(await port.readSetting("embedder")).toBeNull();
    await port.writeSetting("never-set", null);
    expect(await port.readSetting("never-set")).toBeNull();
  });

  test("settings belong to no user: not listed as one, kept when a user is forgotten", async (port) => {
    await port.writeSetting("embedder", "x");
    expect(await port.users()).toEqual([]);
    await port.write({ userId: "u1" }, { kvPut: [{ namespace: ["n"], key: "k", value: "v" }] });
    await port.forgetUser({ userId: "u1" });
    expect(await port.users()).toEqual([]);
    expect(await port.readSetting("embedder")).toBe("x");
  });

  test("two settings are kept apart", async (port) => {
    await port.writeSetting("a", "1");
    await port.writeSetting("b", "2");
    expect([await port.readSetting("a"), await port.readSetting("b")]).toEqual(["1", "2"]);
  });
});
