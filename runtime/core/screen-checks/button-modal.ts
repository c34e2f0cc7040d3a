import { screenChecks } from './check-context';

/** The items' labels; the screens the rules open may be absent (their buttons then say why), so only their explanation is checked. */
export const buttonModalChecks = screenChecks('button-modal', (s, ctx) => {
  ctx.needKey('/title', s.title);
  if (s.intro) ctx.needKey('/intro', s.intro);
  s.items.forEach((item: any, i: number) => ctx.needKey(`/items/${i}/label`, item.label));
  s.rules.forEach((rule: any, i: number) => {
    if (rule.unavailable) ctx.needKey(`/rules/${i}/unavailable`, rule.unavailable);
    else if (!ctx.screens[rule.screen]) ctx.problem(`/rules/${i}/screen`, `screen "${rule.screen}" does not exist and the rule has no "unavailable" text`);
  });
});
