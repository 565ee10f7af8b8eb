-- AlterTable
ALTER TABLE "workout" ADD COLUMN     "event_id" UUID;
