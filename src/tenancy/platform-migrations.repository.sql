-- The SQL this repository sends, one block per example of each method (see @SqlExample).
-- Written by `npm run sql:write`; the test suite fails when it differs from what the code sends.

-- PlatformMigrationsRepository.newestApplied
SELECT name FROM public.platform_migrations ORDER BY timestamp DESC, id DESC LIMIT 1;
