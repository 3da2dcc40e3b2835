-- The SQL this repository sends, one block per example of each method (see @SqlExample).
-- Written by `npm run sql:write`; the test suite fails when it differs from what the code sends.

-- RolesRepository.list
SELECT "Role"."id" AS "Role_id", "Role"."name" AS "Role_name", "Role"."type" AS "Role_type", "Role"."description" AS "Role_description", "Role"."permissions" AS "Role_permissions", "Role"."created_at" AS "Role_created_at", "Role"."updated_at" AS "Role_updated_at" FROM "roles" "Role" ORDER BY "Role"."id" ASC;

-- RolesRepository.findById
SELECT "Role"."id" AS "Role_id", "Role"."name" AS "Role_name", "Role"."type" AS "Role_type", "Role"."description" AS "Role_description", "Role"."permissions" AS "Role_permissions", "Role"."created_at" AS "Role_created_at", "Role"."updated_at" AS "Role_updated_at" FROM "roles" "Role" WHERE (("Role"."id" = $1)) LIMIT 1;

-- RolesRepository.lockById
SELECT "Role"."id" AS "Role_id", "Role"."name" AS "Role_name", "Role"."type" AS "Role_type", "Role"."description" AS "Role_description", "Role"."permissions" AS "Role_permissions", "Role"."created_at" AS "Role_created_at", "Role"."updated_at" AS "Role_updated_at" FROM "roles" "Role" WHERE (("Role"."id" = $1)) LIMIT 1 FOR UPDATE;

-- RolesRepository.save
SELECT "Role"."id" AS "Role_id", "Role"."name" AS "Role_name", "Role"."type" AS "Role_type", "Role"."description" AS "Role_description", "Role"."permissions" AS "Role_permissions", "Role"."created_at" AS "Role_created_at", "Role"."updated_at" AS "Role_updated_at" FROM "roles" "Role" WHERE "Role"."id" IN ($1);
UPDATE "roles" SET "permissions" = $1, "created_at" = $2, "updated_at" = $3 WHERE "id" IN ($4) RETURNING "updated_at";

-- RolesRepository.idOfType
SELECT id FROM public.roles WHERE type = $1;

-- RolesRepository.insertDefaults
INSERT INTO public.roles (name, type, description, permissions) VALUES ($1, $2, $3, $4)
ON CONFLICT (type) DO NOTHING;
INSERT INTO public.roles (name, type, description, permissions) VALUES ($1, $2, $3, $4)
ON CONFLICT (type) DO NOTHING;
INSERT INTO public.roles (name, type, description, permissions) VALUES ($1, $2, $3, $4)
ON CONFLICT (type) DO NOTHING;
INSERT INTO public.roles (name, type, description, permissions) VALUES ($1, $2, $3, $4)
ON CONFLICT (type) DO NOTHING;
INSERT INTO public.roles (name, type, description, permissions) VALUES ($1, $2, $3, $4)
ON CONFLICT (type) DO NOTHING;
