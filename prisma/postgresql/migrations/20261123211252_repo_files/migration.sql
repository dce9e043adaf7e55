-- CreateTable
CREATE TABLE "StoredBlob" (
    "sha256" TEXT NOT NULL,
    "size" BIGINT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "StoredBlob_pkey" PRIMARY KEY ("sha256")
);

-- CreateTable
CREATE TABLE "RepoCommit" (
    "id" TEXT NOT NULL,
    "repoId" TEXT NOT NULL,
    "parentId" TEXT,
    "title" TEXT NOT NULL,
    "message" TEXT NOT NULL DEFAULT '',
    "authorId" TEXT,
    "authorName" TEXT NOT NULL,
    "credential" TEXT NOT NULL,
    "changes" TEXT NOT NULL DEFAULT '[]',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RepoCommit_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RepoRef" (
    "repoId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "commitId" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "RepoRef_pkey" PRIMARY KEY ("repoId","name")
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

    CONSTRAINT "TreeEntry_pkey" PRIMARY KEY ("commitId","path")
);

-- CreateIndex
CREATE INDEX "RepoCommit_repoId_createdAt_idx" ON "RepoCommit"("repoId", "createdAt");

-- CreateIndex
CREATE INDEX "TreeEntry_blobSha256_idx" ON "TreeEntry"("blobSha256");

-- AddForeignKey
ALTER TABLE "RepoCommit" ADD CONSTRAINT "RepoCommit_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repo"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RepoRef" ADD CONSTRAINT "RepoRef_repoId_fkey" FOREIGN KEY ("repoId") REFERENCES "Repo"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TreeEntry" ADD CONSTRAINT "TreeEntry_commitId_fkey" FOREIGN KEY ("commitId") REFERENCES "RepoCommit"("id") ON DELETE CASCADE ON UPDATE CASCADE;
