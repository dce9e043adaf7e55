-- CreateTable
CREATE TABLE "StoredBlob" (
    "sha256" TEXT NOT NULL PRIMARY KEY,
    "size" BIGINT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "RepoCommit" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "repoId" TEXT NOT NULL,
    "parentId" TEXT,
    "title" TEXT NOT NULL,
    "message" TEXT NOT NULL DEFAULT '',
    "authorId" TEXT,
    "authorName" TEXT NOT NULL,
    "credential" TEXT NOT NULL,
    "changes" TEXT NOT NULL DEFAULT '[]',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "RepoCommit_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repo" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "RepoRef" (
    "repoId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "commitId" TEXT NOT NULL,
    "updatedAt" DATETIME NOT NULL,

    PRIMARY KEY ("repoId", "name"),
    CONSTRAINT "RepoRef_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repo" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "TreeEntry" (
    "commitId" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "blobSha256" TEXT NOT NULL,
    "size" BIGINT NOT NULL,
    "gitOid" TEXT NOT NULL,
    "lfs" BOOLEAN NOT NULL DEFAULT false,
    "lastCommitId" TEXT NOT NULL,

    PRIMARY KEY ("commitId", "path"),
    CONSTRAINT "TreeEntry_commitId_fkey" FOREIGN KEY ("commitId") REFERENCES "RepoCommit" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "RepoCommit_repoId_createdAt_idx" ON "RepoCommit"("repoId", "createdAt");

-- CreateIndex
CREATE INDEX "TreeEntry_blobSha256_idx" ON "TreeEntry"("blobSha256");
