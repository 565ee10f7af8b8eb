export { preparePhoto, type PreparedPhoto } from "./image.ts";
export { createOcrPool, type OcrPool, type ReadLine, type ReadText } from "./ocr-pool.ts";
export { fixDigits } from "./misreads.ts";
