// Types of the plugin in boundaries.js, for the TypeScript test beside it.
import type { Rule } from 'eslint';

export declare const boundaries: {
  meta: { name: string };
  rules: Record<string, Rule.RuleModule>;
};
