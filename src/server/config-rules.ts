import { RULE_VARIABLES, type RuleName, type RulesSettings } from '../shared/installation-settings';
import type { Config } from './config';

/**
 * The installation's rules saved in the browser (retention, who may keep a video, the sign-up grant,
 * whether new accounts are taken, the registration challenge; issue 45) over the configuration read
 * from the environment. A rule whose variable the environment sets keeps the environment's value:
 * the operator's file wins.
 */

/** Which rules the environment sets (a variable present and not empty). */
export function rulesSetIn(source: Record<string, string | undefined>): Set<RuleName> {
  const set = new Set<RuleName>();
  for (const [rule, variable] of Object.entries(RULE_VARIABLES) as [RuleName, string][])
    if (source[variable]?.trim()) set.add(rule);
  return set;
}

/** The configuration with the saved rules where the environment sets none. */
export function withSavedRules(base: Config, rules: RulesSettings | undefined): Config {
  if (!rules) return base;
  const fromEnvironment = base.rulesFromEnvironment;
  const use = <K extends RuleName>(rule: K): RulesSettings[K] | undefined =>
    fromEnvironment.has(rule) ? undefined : rules[rule];
  const videoHours = use('videoHours');
  const keepFor = use('keepFor');
  const signupCreditsHundredths = use('signupCreditsHundredths');
  const registrationOpen = use('registrationOpen');
  const challenge = use('registrationChallenge');
  return {
    ...base,
    retention: {
      videoHours: videoHours ?? base.retention.videoHours,
      keepFor: keepFor ?? base.retention.keepFor,
    },
    accounts: {
      ...base.accounts,
      signupCreditsHundredths: signupCreditsHundredths ?? base.accounts.signupCreditsHundredths,
      registrationOpen: registrationOpen ?? base.accounts.registrationOpen,
    },
    registrationChallenge:
      challenge === undefined
        ? base.registrationChallenge
        : challenge
          ? (base.registrationChallenge ?? { maxNumber: base.registrationChallengeCost })
          : undefined,
  };
}
