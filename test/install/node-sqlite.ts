/** Whether this Node has the built-in node:sqlite (22.13 and later): then no project needs better-sqlite3. */
export function hasNodeSqlite(): boolean {
  const getBuiltinModule = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  if (typeof getBuiltinModule !== "function") return false;
  try {
    return getBuiltinModule.call(process, "node:sqlite") !== undefined;
  } catch {
    return false;
  }
}
