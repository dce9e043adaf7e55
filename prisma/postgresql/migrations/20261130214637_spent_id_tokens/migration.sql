-- CreateTable
CREATE TABLE "SpentIdToken" (
    "tokenHash" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SpentIdToken_pkey" PRIMARY KEY ("tokenHash")
);

-- CreateIndex
CREATE INDEX "SpentIdToken_expiresAt_idx" ON "SpentIdToken"("expiresAt");
