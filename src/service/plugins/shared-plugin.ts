import type { FastifyPluginAsync } from "fastify";

/**
 * Marks a plugin as not encapsulated, so its decorators and hooks reach the parent:
 * Fastify's documented `skip-override` flag (what the fastify-plugin package sets).
 */
export function sharedPlugin<T extends FastifyPluginAsync<any>>(plugin: T, name: string): T {
  Object.assign(plugin, {
    [Symbol.for("skip-override")]: true,
    [Symbol.for("fastify.display-name")]: name,
  });
  return plugin;
}
