-- AlterTable
ALTER TABLE "TrustedPublisher" ADD COLUMN     "createdById" TEXT;

-- CreateIndex
CREATE INDEX "TrustedPublisher_repoId_idx" ON "TrustedPublisher"("repoId");

-- CreateIndex
CREATE INDEX "TrustedPublisher_ownerUserId_idx" ON "TrustedPublisher"("ownerUserId");

-- The organization audit log is append-only: entries are never changed once written.
-- (Deleting an organization still removes its entries through the foreign key's cascade.)
-- The function body spells its semicolons as \073: Prisma's PostgreSQL adapter splits migration
-- scripts at every semicolon, even inside quoted bodies.
CREATE FUNCTION "AuditLogEntry_refuse_update"() RETURNS trigger LANGUAGE plpgsql
AS E'BEGIN RAISE EXCEPTION ''audit log entries are append-only''\073 END\073';

CREATE TRIGGER "AuditLogEntry_append_only"
BEFORE UPDATE ON "AuditLogEntry"
FOR EACH ROW EXECUTE FUNCTION "AuditLogEntry_refuse_update"();
