export * from './errors.ts';
export * from './auth.ts';
export * from './dashboard.ts';
export * from './diagnostic.ts';
export * from './config-sections.ts';
export * from './sync-id.ts';
export * from './config-api.ts';
export * from './config-registry.ts';
