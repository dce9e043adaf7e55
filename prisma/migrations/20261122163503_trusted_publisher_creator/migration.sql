-- AlterTable
ALTER TABLE "TrustedPublisher" ADD COLUMN "createdById" TEXT;

-- CreateIndex
CREATE INDEX "TrustedPublisher_repoId_idx" ON "TrustedPublisher"("repoId");

-- CreateIndex
CREATE INDEX "TrustedPublisher_ownerUserId_idx" ON "TrustedPublisher"("ownerUserId");

-- The organization audit log is append-only: entries are never changed once written.
-- (Deleting an organization still removes its entries through the foreign key's cascade.)
CREATE TRIGGER "AuditLogEntry_append_only"
BEFORE UPDATE ON "AuditLogEntry"
BEGIN
  SELECT RAISE(ABORT, 'audit log entries are append-only');
END;
