-- CreateTable
CREATE TABLE "SpentIdToken" (
    "tokenHash" TEXT NOT NULL PRIMARY KEY,
    "expiresAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "SpentIdToken_expiresAt_idx" ON "SpentIdToken"("expiresAt");
