// The admin feature's query keys; the users list adds its search and sort to the users prefix.

export const adminStatsQueryKey = ['/api/admin/stats'] as const;

/** The prefix of every page of the users table: invalidating it refreshes every search and sort. */
export const adminUsersQueryKey = ['/api/admin/users'] as const;

/** Its own key, outside the users prefix, so saving or deleting a user never re-runs the probe. */
export const adminAccessQueryKey = ['admin-access'] as const;

/** The prefix of every filtered view of the jobs console: invalidating it refreshes them all. */
export const adminJobsQueryKey = ['/api/admin/jobs'] as const;

/** The cost view, by the number of days it covers. */
export const adminCostsQueryKey = ['/api/admin/costs'] as const;

/** The safety queue: open reports, appeals and held jobs, with the figures. */
export const adminSafetyQueryKey = ['/api/admin/safety'] as const;

/** The installation's settings: providers connected, and the first-run checklist. */
export const adminSettingsQueryKey = ['/api/admin/settings'] as const;
