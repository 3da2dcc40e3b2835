-- The SQL migration ContentTypesClientScope1734600000000 sends (its `up`), run after the migrations before it on an empty client database.
-- Written by `npm run migrations:sql`; the test suite fails when it differs from what the migration sends.
-- The migration runner wraps it in a transaction of its own (START TRANSACTION ... COMMIT below).

-- In schema public:
START TRANSACTION;
UPDATE content_type_definitions
   SET definition = jsonb_set(definition, '{options}',
         COALESCE(definition->'options', '{}'::jsonb) || '{"companyScoped": false}'::jsonb)
 WHERE NOT COALESCE(definition->'options', '{}'::jsonb) ? 'companyScoped';
COMMIT;

-- In every sandbox_* schema: the same statements.
