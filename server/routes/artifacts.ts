/**
 * GET /api/workflow-runs/{id}/artifacts (design §9): what a run left behind — its delivery (branch, pull
 * request, bundle) and the files in its artifacts folder. The working copy is named, not listed: it is a
 * whole repository.
 */
import type { FastifyInstance } from 'fastify';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { WfError } from '../../core/errors.js';
import { getRun } from '../../sql/runs.js';
import { runArtifactsDir } from '../../workers/workspace.js';
import { idParams } from '../schemas.js';

/** Entries listed at most; a run that wrote more says so (`truncated`). */
export const ARTIFACT_LIST_MAX = 500;

interface Entry {
  path: string;
  size: number;
}

async function listFiles(root: string): Promise<{ files: Entry[]; truncated: boolean }> {
  const files: Entry[] = [];
  const walk = async (rel: string): Promise<boolean> => {
    let names: string[];
    try {
      names = (await readdir(path.join(root, rel))).sort();
    } catch {
      return true;
    }
    for (const name of names) {
      const relPath = rel ? `${rel}/${name}` : name;
      if (relPath === 'workspace') continue;
      const st = await stat(path.join(root, relPath)).catch(() => undefined);
      if (!st) continue;
      if (st.isDirectory()) {
        if (!(await walk(relPath))) return false;
      } else {
        if (files.length >= ARTIFACT_LIST_MAX) return false;
        files.push({ path: relPath, size: st.size });
      }
    }
    return true;
  };
  const complete = await walk('');
  return { files, truncated: !complete };
}

export default async function artifactRoutes(app: FastifyInstance) {
  const { db, config } = app.services;
  app.get<{ Params: { id: string } }>('/api/workflow-runs/:id/artifacts', {
    schema: { params: idParams },
  }, async (req) => {
    const run = getRun(db, req.params.id);
    if (!run) throw new WfError('RUN_NOT_FOUND', `no run '${req.params.id}'`);
    const folder = runArtifactsDir(config, run.id);
    const copy = path.join(folder, 'workspace');
    const copyExists = await stat(copy).then((s) => s.isDirectory(), () => false);
    const { files, truncated } = await listFiles(folder);
    return {
      run_id: run.id,
      write: run.write === 1,
      folder,
      working_copy: copyExists ? copy : null,
      branch: run.branch,
      pull_request_url: run.pull_request_url,
      bundle_path: run.bundle_path,
      files,
      truncated,
    };
  });
}
