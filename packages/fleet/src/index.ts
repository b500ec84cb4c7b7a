export { startFleet } from './start.js';
export { SERVICES, serviceNamed } from './services.js';
export { ensureDemoAccount } from './demo-account.js';
export { DataDir } from './data-dir.js';
