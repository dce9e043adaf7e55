-- AlterTable
ALTER TABLE "AuthorizationCode" ADD COLUMN     "authTime" INTEGER;

-- AlterTable
ALTER TABLE "RefreshToken" ADD COLUMN     "authTime" INTEGER;
