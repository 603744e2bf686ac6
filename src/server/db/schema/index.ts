export * from './admin-audit';
export * from './credit-ledger';
export * from './error-reports';
export * from './sessions';
export * from './users';
export * from './uploads';
export * from './generations';
export * from './allowances';
