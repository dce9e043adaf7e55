-- AlterTable
ALTER TABLE "DeviceCode" ADD COLUMN "authTime" INTEGER;
