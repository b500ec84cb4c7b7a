export * from './areas.js';
export * from './audiences.js';
export * from './uuid.js';
