/** `fencesim/module`: gate your own MCP client (the module contract, its adapters, one interleaving in code). */
export type { ModuleClient, ModuleEnv, ModuleFeatures, ModuleHandle, ModuleStore, ServedText } from './contract.js';
export { featuresOf } from './contract.js';
export { cacheModule, type CacheModuleOptions } from './cache-module.js';
export { runModuleInterleaving, type ModuleInterleavingOptions } from './module-world.js';
