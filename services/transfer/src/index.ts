export { createTransferService, transferService, type TransferServiceOptions } from './definition.js';
