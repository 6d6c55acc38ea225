export default function AuthCallbackPage() {
  return (
    <main className="p-8">
      <h1 className="text-2xl font-bold">AuthCallback</h1>
    </main>
  );
}
