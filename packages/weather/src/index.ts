export * from "./grid-source.js";
