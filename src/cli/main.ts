#!/usr/bin/env node
/**
 * The `mdps` command. Node's module compile cache is turned on first, where the runtime has
 * it (Node 22.1 and newer): a command loads hundreds of modules, and the cache keeps their
 * compiled code on disk between runs (in os.tmpdir()/node-compile-cache, or where
 * NODE_COMPILE_CACHE says; NODE_DISABLE_COMPILE_CACHE=1 turns it off). Only modules loaded
 * after it are cached, so the commands themselves (program.ts) are imported after it.
 */
import module from "node:module";

// Node 20 has no compile cache (nor its type): there this does nothing.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
await import("./program.js");
