import type { ApiRoute } from "../defineApiRoute";
import { runAgreementRoute } from "./agreementRoute";
import { decideAlignmentRoute, getAlignmentRoute, startAlignmentRoute } from "./alignmentRoutes";
import { getDatasetRoute, listDatasetsRoute } from "./datasetRoutes";
import { pruneDatasetsRoute } from "./pruneDatasetsRoute";
import { compareRoute } from "./compareRoute";
import { getPairwiseRoute, resumePairwiseRoute, startPairwiseRoute } from "./pairwiseRoutes";
import { datasetAgreementRoute, exportLabelsRoute, importLabelsRoute } from "./labelRoutes";
import { cancelRunRoute, rejudgeRunRoute, resumeRunRoute, startRunRoute } from "./runActionRoutes";
import { getRunRoute, listRunsRoute, runResultsRoute } from "./runRoutes";
import { uploadDatasetRoute } from "./uploadDatasetRoute";
import { listWorkersRoute } from "./workerRoutes";

/**
 * Every /api/v1 operation. The OpenAPI document lists these; a test checks that each route file under
 * app/api/v1 exports exactly the handlers of the operations listed here for its path, but for the document
 * itself (/api/v1/openapi.json, openApiDocumentRoute.ts), which is public and not an operation.
 */
export const API_ROUTES: readonly ApiRoute[] = [
  listDatasetsRoute,
  uploadDatasetRoute,
  getDatasetRoute,
  pruneDatasetsRoute,
  exportLabelsRoute,
  importLabelsRoute,
  datasetAgreementRoute,
  listRunsRoute,
  startRunRoute,
  getRunRoute,
  cancelRunRoute,
  resumeRunRoute,
  rejudgeRunRoute,
  runResultsRoute,
  runAgreementRoute,
  startAlignmentRoute,
  getAlignmentRoute,
  decideAlignmentRoute,
  compareRoute,
  startPairwiseRoute,
  getPairwiseRoute,
  resumePairwiseRoute,
  listWorkersRoute,
];
