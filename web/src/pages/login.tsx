export default function LoginPage() {
  return (
    <main className="p-8">
      <h1 className="text-2xl font-bold">Login</h1>
    </main>
  );
}
