export * from "./envelope.js";
