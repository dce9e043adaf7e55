-- CreateTable
CREATE TABLE "RepoBlob" (
    "repoId" TEXT NOT NULL,
    "sha256" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RepoBlob_pkey" PRIMARY KEY ("repoId","sha256")
);

-- CreateIndex
CREATE INDEX "RepoBlob_sha256_idx" ON "RepoBlob"("sha256");

-- AddForeignKey
ALTER TABLE "RepoBlob" ADD CONSTRAINT "RepoBlob_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repo"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Backfill: every blob a repo's commits already hold is the repo's.
INSERT INTO "RepoBlob" ("repoId", "sha256")
SELECT DISTINCT c."repoId", t."blobSha256" FROM "TreeEntry" t JOIN "RepoCommit" c ON c."id" = t."commitId";
