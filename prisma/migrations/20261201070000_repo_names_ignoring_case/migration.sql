-- No two repositories of one type and owner may have names that differ only in letter case, as on
-- the Hub: "Alice/Toxicity-Tiny" is alice/toxicity-tiny (lib/hub/repos.ts findRepoIgnoringCase).
-- createRepo checks first, but two requests racing each other both passed the check, and the index
-- on (type, namespace, name) compares names as they are written. Written by hand, the same on
-- SQLite and PostgreSQL: Prisma's schema cannot name an index on expressions.

-- Repos that already differ from an older one only in case (made by such a race) are renamed, so
-- that the index can be made: the oldest keeps its name, each later one gets "_" and its own id
-- after its name, cut to 70 characters (96 at most, and still a name the Hub's clients accept). Its
-- files, collections and access requests keep it by id.
UPDATE "Repo" SET "name" = substr("name", 1, 70) || '_' || "id"
WHERE EXISTS (
    SELECT 1 FROM "Repo" AS "older"
    WHERE "older"."type" = "Repo"."type"
      AND lower("older"."namespace") = lower("Repo"."namespace")
      AND lower("older"."name") = lower("Repo"."name")
      AND ("older"."createdAt" < "Repo"."createdAt" OR ("older"."createdAt" = "Repo"."createdAt" AND "older"."id" < "Repo"."id"))
);

-- CreateIndex
CREATE UNIQUE INDEX "Repo_type_lower_namespace_lower_name_key" ON "Repo"("type", lower("namespace"), lower("name"));
