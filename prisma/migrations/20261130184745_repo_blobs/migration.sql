-- CreateTable
CREATE TABLE "RepoBlob" (
    "repoId" TEXT NOT NULL,
    "sha256" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("repoId", "sha256"),
    CONSTRAINT "RepoBlob_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repo" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "RepoBlob_sha256_idx" ON "RepoBlob"("sha256");

-- Backfill: every blob a repo's commits already hold is the repo's.
INSERT INTO "RepoBlob" ("repoId", "sha256")
SELECT DISTINCT c."repoId", t."blobSha256" FROM "TreeEntry" t JOIN "RepoCommit" c ON c."id" = t."commitId";
