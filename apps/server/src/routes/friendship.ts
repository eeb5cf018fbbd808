import { errorBody } from '@earshot/contract/errors';
import {
  friendList as friendListResponse,
  friendshipStatusResponse,
  pendingRequests,
  userParam,
} from '@earshot/contract/friendship';
import { z } from 'zod';
import { signedInUser } from '../http/auth';
import {
  acceptFriendship,
  declineFriendship,
  friendList,
  friendshipStatus,
  incomingRequests,
  requestFriendship,
  unfriend,
} from '../services/social';
import { requireUserByHandle } from '../services/users';
import type { RoutePlugin } from './context';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody };

export const friendshipRoutes: RoutePlugin = async (app, { db, auth }) => {
  const transitions = [
    {
      url: '/api/friendship/request/:user',
      transition: requestFriendship,
      summary: 'Sends a friend request (accepts theirs if they asked first)',
    },
    {
      url: '/api/friendship/accept/:user',
      transition: acceptFriendship,
      summary: 'Accepts their friend request',
    },
    {
      url: '/api/friendship/decline/:user',
      transition: declineFriendship,
      summary: 'Declines their request, or cancels your own',
    },
  ] as const;
  for (const { url, transition, summary } of transitions) {
    app.post(
      url,
      {
        preHandler: auth.requireUser,
        schema: {
          tags: ['friendship'],
          summary,
          params: userParam,
          response: { 200: friendshipStatusResponse, ...errors },
        },
      },
      async (request) => {
        const other = await requireUserByHandle(db, request.params.user);
        return { status: await transition(db, signedInUser(request).id, other.id) };
      },
    );
  }

  app.delete(
    '/api/friendship/unfriend/:id',
    {
      preHandler: auth.requireUser,
      schema: {
        tags: ['friendship'],
        summary: 'Ends a friendship',
        params: z.object({ id: z.string().min(1).max(64) }),
        response: { 200: friendshipStatusResponse, ...errors },
      },
    },
    async (request) => {
      const other = await requireUserByHandle(db, request.params.id);
      return { status: await unfriend(db, signedInUser(request).id, other.id) };
    },
  );

  app.get(
    '/api/friendship/status/:user',
    {
      preHandler: auth.requireUser,
      schema: {
        tags: ['friendship'],
        summary: 'Friendship with a user as the viewer sees it',
        params: userParam,
        response: { 200: friendshipStatusResponse, ...errors },
      },
    },
    async (request) => {
      const other = await requireUserByHandle(db, request.params.user);
      return { status: await friendshipStatus(db, signedInUser(request).id, other.id) };
    },
  );

  app.get(
    '/api/friendship/pending',
    {
      preHandler: auth.requireUser,
      schema: {
        tags: ['friendship'],
        summary: 'Friend requests waiting for the viewer',
        response: { 200: pendingRequests, 401: errorBody },
      },
    },
    async (request) => ({ requests: await incomingRequests(db, signedInUser(request).id) }),
  );

  app.get(
    '/api/friendship/list',
    {
      preHandler: auth.requireUser,
      schema: {
        tags: ['friendship'],
        summary: 'Friends and requests both ways, with likes and latest play',
        response: { 200: friendListResponse, 401: errorBody },
      },
    },
    async (request) => ({ friends: await friendList(db, signedInUser(request).id) }),
  );
};
