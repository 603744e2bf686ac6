export * from './error-reports';
export * from './sessions';
export * from './users';
