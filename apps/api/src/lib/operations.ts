/**
 * The name of every API operation in the OpenAPI document (`operationId`), by method and route
 * pattern. Generated clients call them by these names (`client.listActiveCourses()`), so a name
 * never changes once shipped: a route renamed in the URL keeps its operationId. Start-up fails
 * for an API route missing here (plugins/access.ts), and for a name used twice.
 *
 * The English summary is the route's own `schema.summary` when it has one, otherwise the name in
 * words (`listActiveCourses` → "List active courses"). The HEAD twin of a GET is named after it
 * (`getLessonAudio` → `headLessonAudio`).
 */
export const OPERATION_IDS: Readonly<Record<string, string>> = {
  // health
  "GET /api/health": "getHealth",
  "GET /api/health/ready": "getReadiness",
  // auth
  "POST /api/v1/user/self-register": "selfRegister",
  "POST /api/v1/user/resend-activation": "resendActivationMail",
  "GET /api/v1/user/account-activate/:token": "activateAccount",
  "POST /api/v1/user/authenticate": "signIn",
  "POST /api/v1/auth/refresh": "refreshSession",
  "POST /api/v1/auth/unlock": "unlockAccount",
  "GET /api/v1/auth/logout": "signOut",
  "POST /api/v1/auth/forgot-password": "requestPasswordReset",
  "POST /api/v1/user/checkPasswordResetToken": "checkPasswordResetToken",
  "POST /api/v1/user/reset": "resetPassword",
  "POST /api/v1/auth/reset-forgot-password": "resetForgottenPassword",
  "POST /api/v1/auth/change-password": "changePassword",
  "POST /api/v1/validations/email-exists": "checkEmailExists",
  "POST /api/v1/validations/username-exists": "checkUsernameExists",
  "GET /api/v1/auth/providers": "listSocialProviders",
  "GET /api/v1/auth/oauth/:provider": "startSocialSignIn",
  "GET /api/v1/auth/oauth/:provider/callback": "completeSocialSignIn",
  "POST /api/v1/auth/social-login/:provider": "exchangeSocialTicket",
  // second factors
  "POST /api/v1/auth/second-factor/verify": "verifySecondFactor",
  "POST /api/v1/auth/second-factor/setup": "startSecondFactorSetupAtSignIn",
  "POST /api/v1/auth/second-factor/setup/confirm": "confirmSecondFactorSetupAtSignIn",
  "GET /api/v1/user/me/two-factor": "getMyTwoFactor",
  "POST /api/v1/user/me/two-factor/totp/setup": "startTotpSetup",
  "POST /api/v1/user/me/two-factor/totp/enable": "enableTotp",
  "POST /api/v1/user/me/two-factor/totp/disable": "disableTotp",
  "POST /api/v1/user/me/two-factor/recovery-codes": "renewRecoveryCodes",
  "GET /api/v1/user/me/sessions": "listMySessions",
  "DELETE /api/v1/user/me/sessions/:id": "endMySession",
  "POST /api/v1/user/me/sessions/end-others": "endMyOtherSessions",
  // passkeys
  "POST /api/v1/auth/passkey/options": "startPasskeySignIn",
  "POST /api/v1/auth/passkey/verify": "signInWithPasskey",
  "POST /api/v1/auth/second-factor/passkey/options": "startPasskeySecondFactor",
  "POST /api/v1/auth/second-factor/passkey/verify": "verifyPasskeySecondFactor",
  "POST /api/v1/auth/second-factor/setup/passkey/options": "startPasskeySetupAtSignIn",
  "POST /api/v1/auth/second-factor/setup/passkey": "registerPasskeyAtSignIn",
  "GET /api/v1/user/me/passkeys": "listMyPasskeys",
  "POST /api/v1/user/me/passkeys/options": "startPasskeyRegistration",
  "POST /api/v1/user/me/passkeys": "registerPasskey",
  "PATCH /api/v1/user/me/passkeys/:id": "renamePasskey",
  "DELETE /api/v1/user/me/passkeys/:id": "removePasskey",
  // users
  "GET /api/v1/user/me": "getCurrentUser",
  "GET /api/v1/users/me": "getCurrentUserAlias",
  "PUT /api/v1/user/profile/:id": "updateProfile",
  "POST /api/v1/users": "listUsers",
  "POST /api/v1/users/customers": "listCustomers",
  "GET /api/v1/users/:id": "getUser",
  "POST /api/v1/users/add": "createUser",
  "POST /api/v1/users/signup": "createCustomer",
  "POST /api/v1/users/user-approve": "approveUser",
  "POST /api/v1/users/status/update": "updateUserStatus",
  "POST /api/v1/users/update/:id": "updateUser",
  // roles
  "GET /api/v1/api/role": "listRoles",
  "POST /api/v1/api/role": "createRole",
  "GET /api/v1/api/permission": "listPermissions",
  "DELETE /api/v1/api/:id": "deleteRole",
  // settings
  "GET /api/v1/settings": "getSettings",
  "POST /api/v1/settings": "updateSettings",
  // plans
  "GET /api/v1/plans": "listPlans",
  "POST /api/v1/plans": "createPlan",
  "GET /api/v1/plans/active": "listActivePlans",
  "GET /api/v1/plans/single/:id": "getPlan",
  "PUT /api/v1/plans/:id": "updatePlan",
  "DELETE /api/v1/plans/:id": "deletePlan",
  // billing
  "GET /api/v1/billing/providers": "listPaymentProviders",
  "GET /api/v1/billing/trial": "getTrialEligibility",
  "POST /api/v1/customer-plan": "subscribeToPlan",
  "GET /api/v1/customer-plan/by-plan-id/:id": "getCustomerPlanByPlan",
  "GET /api/v1/customer-plan/update-status/:id": "refreshCustomerPlanStatus",
  "GET /api/v1/customer-plan/plan-check-cancel/:id": "checkCustomerPlanCancellation",
  "POST /api/v1/customer-plan/update-plan-status": "updateCustomerPlanStatus",
  "POST /api/v1/customer-plan/update-last-payment": "updateLastPayment",
  "GET /api/v1/customer-plan/has-valid-pro-plan": "hasValidProPlan",
  "GET /api/v1/customer-plan/valid-latest": "getLatestValidCustomerPlan",
  "POST /api/v1/customer-plan/cancel/:id": "cancelCustomerPlan",
  "GET /api/v1/customer-plan/payments": "listPayments",
  "GET /api/v1/receipts/:id": "getReceipt",
  "GET /api/v1/receipts/:id/pdf": "getReceiptPdf",
  "POST /api/v1/purchases": "startPurchase",
  "GET /api/v1/purchases": "listMyPurchases",
  "GET /api/v1/purchases/all": "listPurchases",
  "GET /api/v1/purchases/:id": "getPurchase",
  "POST /api/v1/purchases/:id/capture": "capturePurchase",
  "POST /api/v1/purchases/:id/demo/approve": "approveDemoPurchase",
  "POST /api/v1/purchases/:id/demo/decline": "declineDemoPurchase",
  "POST /api/v1/purchases/:id/refund": "refundPurchase",
  "GET /api/v1/coupons": "listCoupons",
  "POST /api/v1/coupons": "createCoupon",
  "PUT /api/v1/coupons/:id": "updateCoupon",
  "DELETE /api/v1/coupons/:id": "deleteCoupon",
  "GET /api/v1/sales": "getSalesReport",
  "GET /api/v1/sales/csv": "getSalesCsv",
  "GET /api/v1/coupons/quote": "quoteCoupon",
  // analytics
  "GET /api/v1/analytics": "getAnalytics",
  "GET /api/v1/analytics/overview": "getStaffOverview",
  "GET /api/v1/analytics/csv": "getAnalyticsCsv",
  "GET /api/v1/analytics/courses/:courseId/lines": "getCourseLineDifficulty",
  "POST /api/v1/analytics/refresh": "refreshAnalytics",
  // certificates
  "GET /api/v1/certificates/mine": "listMyCertificates",
  "GET /api/v1/certificates/verify/:code": "verifyCertificate",
  "GET /api/v1/certificates/:id": "getCertificate",
  "GET /api/v1/certificates/:id/pdf": "getCertificatePdf",
  "GET /api/v1/certificates": "listCertificates",
  "POST /api/v1/certificates/:id/revoke": "revokeCertificate",
  "POST /api/v1/customer-plan/demo/:id/approve": "approveDemoPayment",
  "POST /api/v1/customer-plan/demo/:id/decline": "declineDemoPayment",
  "POST /api/v1/billing/webhooks/paypal": "receivePaypalWebhook",
  // courses
  "GET /api/v1/courses/active": "listActiveCourses",
  "GET /api/v1/courses/popular": "listPopularCourses",
  "GET /api/v1/courses/single/:id": "getCourse",
  "GET /api/v1/courses/customer/overview/:id": "getCourseOverview",
  "GET /api/v1/courses/customer/progress": "getLearnerProgress",
  "GET /api/v1/courses": "listCourses",
  "POST /api/v1/courses": "createCourse",
  "PUT /api/v1/courses/:id": "updateCourse",
  "DELETE /api/v1/courses/:id": "deleteCourse",
  "PUT /api/v1/courses/popular-unpopular/:id": "setCoursePopular",
  "POST /api/v1/courses/:id/publish": "publishCourse",
  "POST /api/v1/courses/:id/unpublish": "unpublishCourse",
  // lessons
  "GET /api/v1/courses/:courseId/lessons": "listLessons",
  "POST /api/v1/courses/:courseId/lessons": "createLesson",
  "POST /api/v1/courses/:courseId/lessons/active": "listActiveLessons",
  "POST /api/v1/courses/:courseId/lessons/done-customer": "saveLessonProgress",
  "PUT /api/v1/courses/:courseId/lessons/:id": "updateLesson",
  "DELETE /api/v1/courses/:courseId/lessons/:id": "deleteLesson",
  "PUT /api/v1/courses/:courseId/lessons/update-by-column/:id": "updateLessonColumn",
  "PUT /api/v1/courses/:courseId/lessons/update-links/:id": "updateLessonLinks",
  "GET /api/v1/courses/:courseId/lessons/:id/cues": "listLessonCues",
  "PUT /api/v1/courses/:courseId/lessons/:id/cues": "replaceLessonCues",
  "POST /api/v1/courses/:courseId/lessons/:id/align": "alignLesson",
  "GET /api/v1/courses/:courseId/lessons/:id/align": "getLessonAlignment",
  "POST /api/v1/courses/:courseId/lessons/:id/propose-lines": "proposeLessonLines",
  "GET /api/v1/courses/:courseId/lessons/:id/propose-lines": "getLessonLinesProposal",
  "POST /api/v1/courses/:courseId/lessons/file/upload": "uploadLessonFile",
  "GET /api/v1/courses/:courseId/translations": "exportCourseTranslations",
  "POST /api/v1/courses/:courseId/translations": "importCourseTranslations",
  "POST /api/v1/courses/:courseId/imports": "importCourseFiles",
  // media
  "POST /api/v1/medias/file/upload": "uploadMedia",
  "GET /api/v1/media/audio/:lessonId": "getLessonAudio",
  "GET /api/v1/media/images/:name": "getImage",
  // review
  "GET /api/v1/review/due": "listDueReviews",
  "GET /api/v1/courses/:courseId/glossary": "listGlossaryEntries",
  "POST /api/v1/courses/:courseId/glossary": "createGlossaryEntry",
  "PUT /api/v1/courses/:courseId/glossary/:id": "updateGlossaryEntry",
  "DELETE /api/v1/courses/:courseId/glossary/:id": "deleteGlossaryEntry",
  "POST /api/v1/courses/:courseId/glossary/import": "importGlossary",
  "GET /api/v1/courses/:courseId/glossary/suggestions": "suggestGlossaryEntries",
  "GET /api/v1/lessons/:lessonId/words/lookup": "lookUpWord",
  "POST /api/v1/lessons/:lessonId/words": "addWordCard",
  "GET /api/v1/words": "listMyWords",
  "GET /api/v1/words/counts": "countMyWords",
  "POST /api/v1/review/grade": "gradeReview",
  "POST /api/v1/review/cards": "addReviewCard",
  "DELETE /api/v1/review/cards/:id": "removeReviewCard",
  "GET /api/v1/review/stats": "getReviewStats",
  "POST /api/v1/recordings": "keepRecording",
  "GET /api/v1/recordings": "listRecordings",
  "GET /api/v1/recordings/:id/audio": "getRecordingAudio",
  "DELETE /api/v1/recordings/:id": "deleteRecording",
  // practice
  "GET /api/v1/practice/session": "getPracticeSession",
  "POST /api/v1/practice/results": "recordPracticeResult",
  "GET /api/v1/practice/hands-free": "getHandsFreeSession",
  "GET /api/v1/practice/hands-free/audio.mp3": "downloadHandsFreeSession",
  "POST /api/v1/practice/hands-free/grades": "gradeHandsFreeSession",
  // podcast
  "GET /api/v1/podcast/feed": "getPodcastFeedStatus",
  "POST /api/v1/podcast/feed": "rotatePodcastFeed",
  "DELETE /api/v1/podcast/feed": "revokePodcastFeed",
  "GET /api/v1/podcast/feed/:token": "getPodcastFeed",
  "GET /api/v1/podcast/items/:feedId/:lessonId/audio.mp3": "getPodcastEpisodeAudio",
  "GET /api/v1/podcast/sessions/:feedId/:day/audio.mp3": "getPodcastDailySession",
  "GET /api/v1/podcast/items/:feedId/:lessonId/transcript.vtt": "getPodcastEpisodeTranscript",
  "GET /api/v1/podcast/items/:feedId/:lessonId/chapters.json": "getPodcastEpisodeChapters",
  // push reminders
  "GET /api/v1/push": "getPushStatus",
  "POST /api/v1/push/subscriptions": "subscribeToPush",
  "POST /api/v1/push/unsubscribe": "unsubscribeFromPush",
  // habit
  "GET /api/v1/habit": "getHabitSummary",
  "PUT /api/v1/habit/settings": "updateHabitSettings",
  "POST /api/v1/habit/listening": "recordListening",
  "POST /api/v1/habit/sessions": "recordStudySession",
  // mail preferences and one-click unsubscribe
  "GET /api/v1/unsubscribe/:token": "openUnsubscribeLink",
  "POST /api/v1/unsubscribe/:token": "unsubscribeOneClick",
  "GET /api/v1/unsubscribe/:token/status": "getUnsubscribeStatus",
  "POST /api/v1/unsubscribe/:token/resubscribe": "resubscribe",
  "GET /api/v1/user/me/mail-preferences": "getMailPreferences",
  "PUT /api/v1/user/me/mail-preferences": "updateMailPreferences",
  // mail templates
  "GET /api/v1/email-templates": "listMailTemplates",
  "POST /api/v1/email-templates": "createMailTemplate",
  "GET /api/v1/email-templates/active": "listActiveMailTemplates",
  "POST /api/v1/email-templates/preview": "previewMailTemplate",
  "GET /api/v1/email-templates/:id": "getMailTemplate",
  "PUT /api/v1/email-templates/:id": "updateMailTemplate",
  "DELETE /api/v1/email-templates/:id": "deleteMailTemplate",
  // campaigns
  "GET /api/v1/send-mail": "listCampaigns",
  "POST /api/v1/send-mail": "createCampaign",
  "POST /api/v1/send-mail/pagination": "searchCampaigns",
  "POST /api/v1/send-mail/count": "countAudience",
  "POST /api/v1/send-mail/send": "sendCampaign",
  "POST /api/v1/send-mail/test": "sendCampaignTest",
  "GET /api/v1/send-mail/:id": "getCampaign",
  // events
  "GET /api/v1/events": "listEvents",
  "POST /api/v1/events": "createEvent",
  "GET /api/v1/events/:id": "getEvent",
  "GET /api/v1/events/:id/ics": "getEventIcs",
  "PUT /api/v1/events/:id": "updateEvent",
  "DELETE /api/v1/events/:id": "deleteEvent",
  "GET /api/v1/events/:id/registrations": "listEventRegistrations",
  "POST /api/v1/registrations/booking": "bookEvent",
  "GET /api/v1/registrations/mine": "listMyRegistrations",
  "GET /api/v1/registrations/single/:id": "getRegistration",
  "POST /api/v1/registrations/cancel/:id": "cancelRegistration",
  // configs
  "GET /api/v1/configs": "listConfigs",
  "POST /api/v1/configs": "createConfig",
  "GET /api/v1/configs/:key": "getConfig",
  "PUT /api/v1/configs/:key": "updateConfig",
  "DELETE /api/v1/configs/:key": "deleteConfig",
  // notifications
  "GET /api/v1/notifications": "listNotifications",
  "POST /api/v1/notifications/read-all": "markAllNotificationsRead",
  "POST /api/v1/notifications/:id/read": "markNotificationRead",
  // audit
  "GET /api/v1/audit": "listAuditEntries",
  // legal pages
  "GET /api/v1/legal/:page": "getLegalPage",
  // data rights
  "POST /api/v1/user/me/data-export": "exportMyData",
  "GET /api/v1/user/me/data-requests": "listMyDataRequests",
  "GET /api/v1/data-exports/:token": "downloadDataExport",
  "POST /api/v1/user/me/delete": "deleteMyAccount",
  "GET /api/v1/data-requests": "listDataRequests",
  "POST /api/v1/data-requests/:id/process": "processDataRequest",
};

/** `listActiveCourses` → "List active courses". */
export function summaryOf(operationId: string): string {
  const words = operationId
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The name of a GET's HEAD twin: `getLessonAudio` → `headLessonAudio`, `activateAccount` → `headActivateAccount`. */
export function headOperationId(getId: string): string {
  return getId.startsWith("get")
    ? `head${getId.slice(3)}`
    : `head${getId.charAt(0).toUpperCase()}${getId.slice(1)}`;
}
