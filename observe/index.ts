/** Observation shared by production and the simulator: the metric catalogue, the pure fold, the health verdict. */
export * from './instruments.js';
export * from './state.js';
export * from './fold.js';
export * from './classify.js';
export * from './health.js';
