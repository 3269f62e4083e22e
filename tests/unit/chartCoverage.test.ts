import { it } from 'vitest';
import { homeMachine } from '../../machines/home.ts';
import { chartInventory, coverageOf, generatePaths } from '../support/chartCoverage.ts';
it('probe', () => {
  console.log(JSON.stringify(chartInventory(homeMachine), null, 1));
  const ev = [{ type: 'xstate.done.actor.getHome', output: { statusCode: 0 } }, { type: 'user.retry' }, { type: 'user.refresh' }];
  console.log(JSON.stringify(coverageOf(homeMachine, [generatePaths(homeMachine, ev)]), null, 1));
  console.log(JSON.stringify(coverageOf(homeMachine, [generatePaths(homeMachine, ev.slice(0,1))]), null, 1));
});
