/** The stable code of every failure a person can meet; stored with a digest's last failed run. */
export type ErrorCode =
  | 'config_invalid'
  | 'parse_error'
  | 'credentials_rejected'
  | 'unauthorized'
  | 'access_denied'
  | 'unknown_database'
  | 'bad_request'
  | 'rate_limited'
  | 'service_unavailable'
  | 'timeout'
  | 'network'
  | 'invalid_response'
  | 'team_not_allowed'
  | 'digest_not_found'
  | 'digest_permission_denied'
  | 'channel_unreachable'
  | 'slack_call_failed';
