import { useEffect, useRef, useState } from 'react';
import { Navigate } from 'react-router';
import { api } from '../api/client';
import { forgetThisDevice } from '../pwa/push-client';
import { clearSession, currentToken } from '../state/session';
import { clearToasts } from '../state/ui';
import { Loading } from '../screens/Loading';
import { useRoutesDecl } from './useNavigateTo';

/** /sign-out: revokes the token on the server, clears the session, then goes to the sign-in page (routes.json signIn). */
export function SignOut() {
  const { signIn } = useRoutesDecl();
  const [done, setDone] = useState(false);
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return; // StrictMode runs effects twice; sign out once
    started.current = true;
    const quiet = { quiet: true, signOutOn401: false } as const;
    // this browser's push device goes with the person (pwa/push-client.ts), before the token does
    const leave = currentToken()
      ? forgetThisDevice(() => api.get<{ id: number; endpoint: string }[]>('/push/subscriptions', quiet), (id) => api.delete(`/push/subscriptions/${id}`, quiet))
      : Promise.resolve();
    const revoke = leave.catch(() => undefined).then(() => (currentToken() ? api.post('/user/logout', {}, quiet) : undefined));
    // the local session ends whatever the server answers: the user asked to leave
    revoke.catch(() => undefined).finally(() => {
      clearSession();
      // the sign-in page starts clean: a toast of the last action (e.g. a passkey added) is not for the next person
      clearToasts();
      setDone(true);
    });
  }, []);
  return done ? <Navigate to={signIn} replace /> : <Loading />;
}
